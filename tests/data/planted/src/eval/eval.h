unsigned long eval_expr(long seed);
