/* placeholder until the perf reader lands */
int main(void){return 0;}
