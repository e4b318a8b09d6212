// main() of the host-only unit test binaries.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
