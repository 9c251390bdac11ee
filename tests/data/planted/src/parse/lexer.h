#ifdef RENAMED
#define lex_line tokenize_line
#endif
unsigned long lex_line(long seed);
