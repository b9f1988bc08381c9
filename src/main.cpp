#include "app.hpp"
#include "platform/exit.hpp"

int main(int argc, char** argv) {
    cudaenv::platform::exit_process(cudaenv::run_app(argc, argv, cudaenv::command_table()));
}
