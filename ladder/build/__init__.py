"""Compiling a phase and reading what the compiler made of it."""
