#include "app.hpp"

int main(int argc, char** argv) { return cudaenv::run_app(argc, argv, cudaenv::all_commands()); }
