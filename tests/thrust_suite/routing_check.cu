// Linked into every executable of the Thrust test suite: when the program exits, it prints how many
// calls sweep/thrust_override.cuh routed to sweep per algorithm, and turns the exit status into a
// failure if an algorithm this test file must exercise (sweep_thrust_suite_expected, a generated
// one-line source per executable) was never routed, i.e. the file's calls reached Thrust's own
// implementation instead of sweep's.
#include <sweep/thrust_override.cuh>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

extern const char* const sweep_thrust_suite_expected; // "sort,stable_sort" or "" (generated)

namespace
{

std::vector<std::string> split_names(const std::string& list)
{
  std::vector<std::string> names;
  std::stringstream stream(list);
  std::string name;
  while (std::getline(stream, name, ','))
  {
    if (!name.empty())
    {
      names.push_back(name);
    }
  }
  return names;
}

// A run limited to some tests (test names on the command line) or one that runs none (--list,
// --help) may legitimately not reach an algorithm: the check reports but does not fail then.
// The Thrust test driver's other options (--verbose, --concise, --device=N, --sizes=S) keep it.
bool is_partial_run()
{
  std::ifstream cmdline("/proc/self/cmdline", std::ios::binary);
  const std::string all((std::istreambuf_iterator<char>(cmdline)), std::istreambuf_iterator<char>());
  std::vector<std::string> args;
  std::string::size_type start = 0;
  while (start < all.size())
  {
    const auto end = all.find('\0', start);
    args.push_back(all.substr(start, end == std::string::npos ? std::string::npos : end - start));
    start = end == std::string::npos ? all.size() : end + 1;
  }
  for (std::size_t i = 1; i < args.size(); ++i)
  {
    const std::string& arg = args[i];
    const bool keeps_full_run = arg == "--verbose" || arg == "--concise" || arg.rfind("--device=", 0) == 0
                             || arg.rfind("--sizes=", 0) == 0;
    if (!keeps_full_run)
    {
      return true;
    }
  }
  return false;
}

void check_routing()
{
  std::fflush(stdout);
  std::printf("sweep routing check: routed calls");
  for (int i = 0; i < static_cast<int>(sweep::routed_algorithm::count); ++i)
  {
    const auto algorithm = static_cast<sweep::routed_algorithm>(i);
    std::printf(" %s=%llu", sweep::routed_algorithm_name(algorithm), sweep::routed_calls(algorithm));
  }
  std::printf("; required non-zero: [%s]\n", sweep_thrust_suite_expected);

  std::string failures;
  for (const std::string& name : split_names(sweep_thrust_suite_expected))
  {
    bool known = false;
    for (int i = 0; i < static_cast<int>(sweep::routed_algorithm::count); ++i)
    {
      const auto algorithm = static_cast<sweep::routed_algorithm>(i);
      if (name == sweep::routed_algorithm_name(algorithm))
      {
        known = true;
        if (sweep::routed_calls(algorithm) == 0)
        {
          failures += " " + name + " (never routed to sweep)";
        }
      }
    }
    if (!known)
    {
      failures += " " + name + " (not an algorithm the override routes: fix the suite's list)";
    }
  }

  if (failures.empty())
  {
    std::printf("sweep routing check: PASSED\n");
  }
  else if (is_partial_run())
  {
    std::printf("sweep routing check: not enforced for a partial run (test names or --list/--help given):%s\n",
                failures.c_str());
  }
  else
  {
    std::printf("sweep routing check: FAILED:%s\n", failures.c_str());
    std::fflush(stdout);
    std::_Exit(EXIT_FAILURE); // allowed in an atexit handler, unlike exit(); stdout is flushed above
  }
  std::fflush(stdout);
}

// Registered during static initialisation, so it runs after main() returns (or calls exit()).
struct register_check
{
  register_check()
  {
    std::atexit(check_routing);
  }
};
const register_check registration;

} // namespace
