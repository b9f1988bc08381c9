int fatbin_host(void) { return 1; }
