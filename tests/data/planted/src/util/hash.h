#ifdef RENAMED
#define hash_mix mix_hash	/* the rename pair's (see ../README) */
#endif
unsigned long hash_mix(unsigned long x);
