"""Code that runs in a gate's child process and needs torch and a CUDA device."""
