"""Compiling a phase (ninja + nvcc) and reading what the compiler made of it (cuobjdump, the
library's attn_smem_bytes). Runner side only: readers never import this package."""
