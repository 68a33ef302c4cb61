// regscope mcp: a Model Context Protocol server (revision 2025-06-18) over
// stdio, one JSON-RPC 2.0 message per line. Its tools (analyze, parse,
// occupancy, explain, gate) run regscope's own subcommands with --format json
// and return that JSON as structuredContent: the CLI's pipeline, no second
// implementation. docs/mcp.md says what each tool takes and returns.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace regscope {

struct McpOptions {
  // The directories the server may read (realpath'd); every path a tool is
  // given must resolve (symlinks followed) to one of them or below.
  std::vector<std::string> roots;
  // The regscope executable the tools run (this one, /proc/self/exe).
  std::string regscope;
};

// Canonical roots: each must be an existing directory. Throws regscope::Error.
std::vector<std::string> canonicalRoots(const std::vector<std::string> &dirs);

// Serves requests from stdin until it closes (or a signal comes); answers on
// stdout. Returns the exit code.
int runMcpServer(const McpOptions &options);

// The regscope argv (after the executable) a tools/call means, for tests and
// the server alike. Throws McpArgumentError for arguments the tool's
// inputSchema refuses, McpPathError for a path outside the roots.
struct McpArgumentError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
struct McpPathError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// The tools/list result's "tools".
nlohmann::json mcpTools();
std::vector<std::string> mcpToolArgv(const std::string &tool, const nlohmann::json &arguments,
                                     const std::vector<std::string> &roots);

}  // namespace regscope
