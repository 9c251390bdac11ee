unsigned long lex_line(long seed);
