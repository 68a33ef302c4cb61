// regscope mcp [--root DIR]...: the Model Context Protocol server (src/mcp).
#include <unistd.h>

#include <climits>

#include "commands.h"
#include "regscope/mcp/server.h"
#include "regscope/support/error.h"

namespace regscope {

Command addMcpCommand(CLI::App &root) {
  auto roots = std::make_shared<std::vector<std::string>>();
  CLI::App *app = root.add_subcommand(
      "mcp",
      "Serve analyze, parse, occupancy, explain and gate to an MCP client (coding agents) over stdio "
      "(docs/mcp.md)");
  app->add_option("--root", *roots, "A directory the tools may read (repeatable; default: the current directory)")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  return {app, [roots] {
            McpOptions options;
            options.roots = canonicalRoots(roots->empty() ? std::vector<std::string>{workingDirectory()} : *roots);
            char self[PATH_MAX];
            const ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
            if (length <= 0) throw Error("cannot find the regscope executable (/proc/self/exe)");
            options.regscope.assign(self, static_cast<std::size_t>(length));
            return runMcpServer(options);
          }};
}

}  // namespace regscope
