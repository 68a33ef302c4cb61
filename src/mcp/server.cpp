// regscope mcp (include/regscope/mcp/server.h): JSON-RPC over stdio, each
// tools/call on a thread of its own so that the main thread keeps reading
// (notifications/cancelled must reach a running call). A call runs regscope's
// own subcommand as a child process with --format json: the same pipeline and
// JSON as the CLI, and a crash or a compiler's hang in one call cannot take
// the server down. Cancelling a call sets its flag (support/process.h
// CancelScope), which ends that child's process group and so its compiler.
#include "regscope/mcp/server.h"

#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <climits>
#include <condition_variable>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "regscope/support/error.h"
#include "regscope/support/process.h"
#include "regscope/support/version.h"

namespace regscope {

using json = nlohmann::json;

namespace {

constexpr const char *kProtocolVersion = "2025-06-18";
// Older revisions whose messages ours answer alike; a client asking for one gets it back.
const char *const kKnownVersions[] = {"2025-06-18", "2025-03-26", "2024-11-05"};

json stringArray(const char *description) {
  return {{"type", "array"}, {"items", {{"type", "string"}}}, {"description", description}};
}
json integer(const char *description, int minimum = 0) {
  return {{"type", "integer"}, {"minimum", minimum}, {"description", description}};
}
json string(const char *description) { return {{"type", "string"}, {"description", description}}; }

// What the compiling tools (analyze, explain, gate) share.
json sourceProperties() {
  return {{"files", stringArray("HIP or CUDA sources, under the server's roots (relative: to the first root)")},
          {"offload_arch", stringArray("AMD targets (default gfx90a)")},
          {"cuda_arch", stringArray("Compile with nvcc for these NVIDIA targets instead")},
          {"compiler", string("The compiler (default: $HIPCC, then hipcc; with cuda_arch: nvcc); a path must lie "
                              "under a root")},
          {"flags", stringArray("Compiler flags, as after -- on the command line")},
          {"timeout", integer("End a compiler run that takes longer than this many seconds", 1)},
          {"block_size", integer("Assume this workgroup/block size for every kernel", 1)}};
}

json object(json properties, std::vector<std::string> required) {
  json schema = {{"type", "object"}, {"properties", std::move(properties)}, {"additionalProperties", false}};
  if (!required.empty()) schema["required"] = required;
  return schema;
}

json tool(const char *name, const char *title, const char *description, json input, const char *output) {
  return {{"name", name},
          {"title", title},
          {"description", description},
          {"inputSchema", std::move(input)},
          {"outputSchema", {{"type", "object"}, {"description", output}}}};
}

}  // namespace

json mcpTools() {
  json analyze = sourceProperties();
  analyze["lines"] = integer("Also each kernel's N hottest source lines by peak live registers", 1);
  json explain = sourceProperties();
  explain["kernel"] = string("Only this kernel: its name, signature or mangled symbol");
  explain["source_map"] = stringArray(
      "FROM=TO: read the sources a line table places under FROM from TO, a directory under a root (as clang's "
      "-fdebug-prefix-map), for a cache or binary built elsewhere");
  json gate = sourceProperties();
  // A whole number in the vendor's unit, or "N%" of the device's maximum
  // (regscope gate --min-occupancy checks the string: one line, exit 2).
  gate["min_occupancy"] = {{"type", {"integer", "string"}},
                           {"minimum", 1},
                           {"pattern", "^[0-9]+%$"},
                           {"description",
                            "Fail below this occupancy: a whole number in waves/SIMD (AMD), warps/SM (NVIDIA), "
                            "threads/Xe-core (Intel), or \"N%\" of the device's maximum (any vendor)"}};
  gate["max_spills"] = integer("Fail above this many spilled registers (AMD) or spill bytes");
  gate["max_scratch"] = integer("Fail above this many scratch bytes per lane");
  gate["max_loop_spills"] = integer("Fail above this many spill stores and reloads inside loops (AMD)");
  gate["baseline"] = string("A baseline file (regscope baseline): fail only on regressions against it");
  gate["allow_unknown"] = {{"type", "boolean"}, {"description", "Judge the kernels that were read, list the rest"}};
  json occupancy = {{"arch", string("gfx90a, MI250X, sm_90, H100, pvc, ...")},
                    {"vgprs", integer("AMD: architectural VGPRs per lane")},
                    {"agprs", integer("AMD: AGPRs per lane")},
                    {"sgprs", integer("AMD: SGPRs")},
                    {"lds", integer("AMD: LDS bytes per workgroup")},
                    {"dynamic_lds", integer("AMD: extern __shared__ bytes given at launch")},
                    {"wave_size", integer("AMD RDNA: 32 or 64", 32)},
                    {"registers", integer("NVIDIA: registers per thread")},
                    {"smem", integer("NVIDIA: static shared memory per block, bytes")},
                    {"dynamic_smem", integer("NVIDIA: dynamic shared memory per block, bytes")},
                    {"grf", integer("Intel: GRF registers per thread (128 or 256)")},
                    {"simd", integer("Intel: SIMD width")},
                    {"slm", integer("Intel: SLM bytes per work-group")},
                    {"block_size", integer("Workgroup/block size in threads", 1)}};
  return json::array(
      {tool("analyze", "Compile and report kernels",
            "Compile HIP/CUDA sources and report each kernel's registers, spills, scratch, LDS, occupancy, limiter "
            "and next step (regscope analyze --format json)",
            object(analyze, {"files"}), "regscope analyze --format json's report (docs/json-schema.md)"),
       tool("parse", "Read built artifacts",
            "Report kernels from existing build artifacts: .s files, build logs, code objects, cubins, Triton "
            "caches; directories are searched; no compiler runs (regscope parse --format json)",
            object({{"paths", stringArray("Artifacts or directories under the server's roots")},
                    {"arch", string("The arch of a build log's remarks")}},
                   {"paths"}),
            "regscope parse --format json's report (docs/json-schema.md)"),
       tool("occupancy", "Occupancy calculator",
            "Resources in, occupancy out: waves/SIMD (AMD), blocks and warps per SM (NVIDIA), work-groups per "
            "Xe-core (Intel), with the limiter (regscope occupancy --format json)",
            object(occupancy, {"arch"}), "regscope occupancy --format json's object (docs/json-schema.md)"),
       tool("explain", "Where one kernel's registers go",
            "Per source line the peak live registers, the point of maximum pressure and what is live across it, "
            "the instruction mix (regscope explain --format json); files may be sources or built artifacts",
            object(explain, {"files"}), "regscope explain --format json's object (docs/json-schema.md)"),
       tool("gate", "Gate verdict",
            "Judge kernels against thresholds or a baseline; the verdict is in the result (\"passed\"), a failed "
            "gate is not a tool error (regscope gate --format json)",
            object(gate, {"files"}), "regscope gate --format json's object (docs/json-schema.md)")});
}

namespace {

// The tool's inputSchema, enforced: no unknown argument, required ones given, each of its type.
const json &schemaOf(const std::string &name) {
  static const json tools = mcpTools();
  for (const json &t : tools)
    if (t["name"] == name) return t["inputSchema"];
  throw McpArgumentError("unknown tool '" + name + "' (tools: analyze, parse, occupancy, explain, gate)");
}

void checkArguments(const std::string &tool, const json &arguments) {
  const json &schema = schemaOf(tool);
  if (!arguments.is_object()) throw McpArgumentError(tool + ": arguments must be an object");
  for (const auto &[key, value] : arguments.items()) {
    if (!schema["properties"].contains(key)) throw McpArgumentError(tool + ": unknown argument '" + key + "'");
    const json &property = schema["properties"][key];
    // A property of two types ("integer" or "string"): the value's own type is checked as that type.
    std::string type = property["type"].is_array() ? (value.is_string() ? "string" : "integer") : property["type"];
    bool ok = false;
    if (type == "string") ok = value.is_string() && !value.get<std::string>().empty();
    if (type == "boolean") ok = value.is_boolean();
    if (type == "integer")
      ok = value.is_number_integer() && value.get<long long>() >= property["minimum"].get<long long>() &&
           value.get<long long>() <= INT_MAX;
    if (type == "array") {
      ok = value.is_array() && !value.empty();
      for (const json &item : value) ok = ok && item.is_string() && !item.get<std::string>().empty();
    }
    if (!ok)
      throw McpArgumentError(tool + ": argument '" + key + "' must be " +
                             (type == "array"     ? std::string("a non-empty array of non-empty strings")
                              : type == "integer" ? "a whole number of at least " + property["minimum"].dump()
                              : type == "string"  ? std::string("a non-empty string")
                                                  : "a " + type));
  }
  if (schema.contains("required"))
    for (const json &key : schema["required"])
      if (!arguments.contains(key.get<std::string>()))
        throw McpArgumentError(tool + ": argument '" + key.get<std::string>() + "' is required");
}

// `path` resolved (symlinks followed, relative to the first root); it must lie under a root.
std::string underRoots(const std::string &path, const std::vector<std::string> &roots) {
  const std::string joined = path.front() == '/' ? path : roots.front() + "/" + path;
  char *resolved = realpath(joined.c_str(), nullptr);
  if (!resolved) throw McpPathError("cannot read " + path + ": no such file or directory");
  const std::string real = resolved;
  std::free(resolved);
  for (const std::string &root : roots)
    if (real == root || (real.size() > root.size() && real.compare(0, root.size(), root) == 0 &&
                         (root == "/" || real[root.size()] == '/')))
      return real;
  throw McpPathError(path + " is outside the server's roots (regscope mcp --root DIR)");
}

}  // namespace

std::vector<std::string> canonicalRoots(const std::vector<std::string> &dirs) {
  std::vector<std::string> roots;
  for (const std::string &dir : dirs) {
    char *resolved = realpath(dir.c_str(), nullptr);
    if (!resolved) throw Error("--root " + dir + ": no such directory");
    roots.emplace_back(resolved);
    std::free(resolved);
    if (access(roots.back().c_str(), R_OK | X_OK) != 0 || !std::ifstream(roots.back() + "/.").good())
      throw Error("--root " + dir + ": not a readable directory");
  }
  return roots;
}

std::vector<std::string> mcpToolArgv(const std::string &tool, const json &arguments,
                                     const std::vector<std::string> &roots) {
  checkArguments(tool, arguments);
  std::vector<std::string> argv = {tool, "--format", "json"};
  // Options as --name=value, so that no value is read as another option.
  auto option = [&](const char *key, const std::string &flag) {
    if (!arguments.contains(key)) return;
    const json &value = arguments[key];
    if (value.is_boolean()) {
      if (value.get<bool>()) argv.push_back(flag);
    } else if (value.is_array()) {
      std::string joined;
      for (const json &item : value) joined += (joined.empty() ? "" : ",") + item.get<std::string>();
      argv.push_back(flag + "=" + joined);
    } else {
      argv.push_back(flag + "=" + (value.is_string() ? value.get<std::string>() : value.dump()));
    }
  };
  auto paths = [&](const char *key) {
    for (const json &path : arguments[key]) argv.push_back(underRoots(path.get<std::string>(), roots));
  };
  if (tool == "occupancy") {
    for (const char *key : {"arch", "vgprs", "agprs", "sgprs", "lds", "dynamic_lds", "wave_size", "registers", "smem",
                            "dynamic_smem", "grf", "simd", "slm", "block_size"}) {
      std::string flag = std::string("--") + key;
      for (char &c : flag)
        if (c == '_') c = '-';
      option(key, flag);
    }
    return argv;
  }
  argv.insert(argv.end(), {"--progress", "never"});
  if (tool == "parse") {
    option("arch", "--arch");
    paths("paths");
    return argv;
  }
  // analyze, explain, gate: sources, compiled.
  if (arguments.contains("compiler")) {
    const std::string compiler = arguments["compiler"];
    argv.push_back("--compiler=" + (compiler.find('/') == std::string::npos ? compiler : underRoots(compiler, roots)));
  }
  option("offload_arch", "--offload-arch");
  option("cuda_arch", "--cuda-arch");
  option("timeout", "--timeout");
  option("block_size", "--block-size");
  option("lines", "--lines");
  option("kernel", "--kernel");
  option("min_occupancy", "--min-occupancy");
  option("max_spills", "--max-spills");
  option("max_scratch", "--max-scratch");
  option("max_loop_spills", "--max-loop-spills");
  option("allow_unknown", "--allow-unknown");
  if (arguments.contains("baseline"))
    argv.push_back("--baseline=" + underRoots(arguments["baseline"].get<std::string>(), roots));
  if (arguments.contains("source_map"))
    for (const json &rule : arguments["source_map"]) {  // each its own flag: a path may hold a comma
      const std::string value = rule.get<std::string>();
      const std::size_t eq = value.find('=');
      // TO is read: it must lie under a root like every other path (FROM is only a prefix to match).
      if (eq == std::string::npos || eq == 0 || eq + 1 == value.size())
        throw McpPathError("source_map '" + value + "': expected FROM=TO, TO a directory under a root");
      argv.push_back("--source-map=" + value.substr(0, eq + 1) + underRoots(value.substr(eq + 1), roots));
    }
  paths("files");
  if (arguments.contains("flags")) {
    argv.push_back("--");
    for (const json &flag : arguments["flags"]) argv.push_back(flag.get<std::string>());
  }
  return argv;
}

namespace {

class Server {
 public:
  explicit Server(McpOptions options) : options_(std::move(options)) {}

  int run() {
    std::string buffer;
    char chunk[65536];
    bool open = true;
    while (open) {
      pollfd in{0, POLLIN, 0};
      const int ready = poll(&in, 1, 100);
      if (pendingSignal() != 0) break;
      if (ready <= 0) continue;
      const ssize_t got = read(0, chunk, sizeof chunk);
      if (got <= 0)
        open = false;
      else
        buffer.append(chunk, static_cast<std::size_t>(got));
      for (std::size_t end; (end = buffer.find('\n')) != std::string::npos;) {
        const std::string line = buffer.substr(0, end);
        buffer.erase(0, end + 1);
        if (line.find_first_not_of(" \t\r") != std::string::npos) handle(line);
      }
    }
    // stdin closed: the client is gone; stop what runs and wait for it.
    std::unique_lock<std::mutex> lock(calls_mutex_);
    for (auto &[id, cancelled] : calls_) cancelled->store(true);
    calls_done_.wait(lock, [this] { return calls_.empty(); });
    return pendingSignal() ? 128 + pendingSignal() : 0;
  }

 private:
  void send(const json &message) {
    const std::string line = message.dump(-1, ' ', false, json::error_handler_t::replace);
    std::lock_guard<std::mutex> lock(out_mutex_);
    std::cout << line << '\n' << std::flush;
  }
  void reply(const json &id, json result) { send({{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}}); }
  void fail(const json &id, int code, const std::string &message) {
    send({{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}});
  }

  void handle(const std::string &line) {
    json message;
    try {
      message = json::parse(line);
    } catch (const json::exception &e) {
      return fail(nullptr, -32700, std::string("parse error: ") + e.what());
    }
    if (!message.is_object() || message.value("jsonrpc", "") != "2.0" || !message.contains("method") ||
        !message["method"].is_string()) {
      // A response from the client (we send no requests) is ignored; anything else is invalid.
      if (message.is_object() && message.contains("id") && (message.contains("result") || message.contains("error")))
        return;
      return fail(message.is_object() && message.contains("id") ? message["id"] : json(nullptr), -32600,
                  "invalid request: a JSON-RPC 2.0 object with a method");
    }
    const std::string method = message["method"];
    const json params = message.value("params", json::object());
    if (!message.contains("id")) return notification(method, params);
    const json id = message["id"];
    if (!id.is_string() && !id.is_number_integer()) return fail(nullptr, -32600, "invalid request: bad id");
    if (method == "initialize") {
      std::string version = kProtocolVersion;
      for (const char *known : kKnownVersions)
        if (params.value("protocolVersion", "") == known) version = known;
      return reply(id, {{"protocolVersion", version},
                        {"capabilities", {{"tools", {{"listChanged", false}}}}},
                        {"serverInfo", {{"name", "regscope"}, {"title", "regscope"}, {"version", kRegscopeVersion}}},
                        {"instructions",
                         "Static GPU kernel feedback without a GPU: registers, spills, scratch, LDS, occupancy, "
                         "limiter, per-line pressure and gate verdicts. Paths must lie under the server's roots."}});
    }
    if (method == "ping") return reply(id, json::object());
    if (method == "tools/list") return reply(id, {{"tools", mcpTools()}});
    if (method == "tools/call") return call(id, params);
    fail(id, -32601, "method not found: " + method);
  }

  void notification(const std::string &method, const json &params) {
    if (method != "notifications/cancelled" || !params.contains("requestId")) return;
    std::lock_guard<std::mutex> lock(calls_mutex_);
    if (auto found = calls_.find(params["requestId"].dump()); found != calls_.end()) found->second->store(true);
  }

  void call(const json &id, const json &params) {
    if (!params.is_object() || !params.contains("name") || !params["name"].is_string())
      return fail(id, -32602, "tools/call needs params.name");
    const std::string name = params["name"];
    const json arguments = params.contains("arguments") ? params["arguments"] : json::object();
    std::vector<std::string> argv;
    try {
      argv = mcpToolArgv(name, arguments, options_.roots);
    } catch (const McpArgumentError &e) {
      return fail(id, -32602, e.what());  // the protocol's fault: unknown tool, bad arguments
    } catch (const McpPathError &e) {
      return reply(id, toolError(e.what()));  // the call's: a path it may not read
    }
    json token = nullptr;
    if (params.contains("_meta") && params["_meta"].is_object() && params["_meta"].contains("progressToken"))
      token = params["_meta"]["progressToken"];
    auto cancelled = std::make_shared<std::atomic<bool>>(false);
    {
      std::lock_guard<std::mutex> lock(calls_mutex_);
      if (!calls_.emplace(id.dump(), cancelled).second) return fail(id, -32600, "request id already in use");
    }
    std::thread([this, id, name, argv, token, cancelled] {
      json result;
      bool answer = true;
      try {
        result = runTool(name, argv, token, *cancelled);
      } catch (const CancelledError &) {
        answer = false;  // the client said it no longer wants the answer (notifications/cancelled)
      } catch (const InterruptedError &) {
        result = toolError("regscope mcp was interrupted");
      } catch (const std::exception &e) {
        result = toolError(e.what());
      }
      if (answer && !cancelled->load()) reply(id, std::move(result));
      std::lock_guard<std::mutex> lock(calls_mutex_);
      calls_.erase(id.dump());
      calls_done_.notify_all();
    }).detach();
  }

  static json toolError(const std::string &text) {
    return {{"content", json::array({{{"type", "text"}, {"text", text}}})}, {"isError", true}};
  }

  json runTool(const std::string &name, std::vector<std::string> argv, const json &token,
               const std::atomic<bool> &cancelled) {
    argv.insert(argv.begin(), options_.regscope);
    // A long call says it is still running, once a second, while the client asked (a progressToken).
    std::atomic<bool> finished{false};
    std::thread ticker;
    if (!token.is_null())
      ticker = std::thread([this, token, name, &finished] {
        const auto start = std::chrono::steady_clock::now();
        for (int tick = 0; !finished.load(); ++tick) {
          const int seconds = static_cast<int>(
              std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - start).count());
          if (tick % 10 == 0)
            send({{"jsonrpc", "2.0"},
                  {"method", "notifications/progress"},
                  {"params",
                   {{"progressToken", token},
                    {"progress", tick / 10},
                    {"message", "regscope " + name + ": running, " + std::to_string(seconds) + " s"}}}});
          std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
      });
    ProcessOutput output;
    try {
      const CancelScope scope(&cancelled);
      output = runCaptured(argv, options_.roots.front());
    } catch (...) {
      finished = true;
      if (ticker.joinable()) ticker.join();
      throw;
    }
    finished = true;
    if (ticker.joinable()) ticker.join();
    // gate exits 1 when a rule fails: a verdict, not a tool error.
    const bool ok = output.exit_code == 0 || (name == "gate" && output.exit_code == 1);
    json report = json::parse(output.out, nullptr, /*allow_exceptions=*/false);
    json result = {{"isError", !ok}};
    std::string text;
    if (!output.err.empty()) text = output.err;
    if (report.is_object()) {
      result["structuredContent"] = report;
      text += report.dump(2, ' ', false, json::error_handler_t::replace);
    } else if (ok) {
      result["isError"] = true;
      text += "regscope " + name + " printed no JSON report";
    }
    if (text.empty()) text = "regscope " + name + " exited " + std::to_string(output.exit_code);
    result["content"] = json::array({{{"type", "text"}, {"text", text}}});
    return result;
  }

  McpOptions options_;
  std::mutex out_mutex_, calls_mutex_;
  std::condition_variable calls_done_;
  std::map<std::string, std::shared_ptr<std::atomic<bool>>> calls_;  // id (as JSON) -> its cancel flag
};

}  // namespace

int runMcpServer(const McpOptions &options) { return Server(options).run(); }

}  // namespace regscope
