unsigned long hash_mix(unsigned long x);
