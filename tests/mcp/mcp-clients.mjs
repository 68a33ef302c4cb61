// regscope mcp through real MCP clients (issue 34): the official TypeScript
// SDK's stdio client and the MCP Inspector's CLI mode, both installed by
// scripts/install-test-tools.sh into build/tools. Each tool is called on
// fixtures and its structuredContent must equal what `regscope TOOL --format
// json` prints for the same input; the bad calls (unknown tool, bad arguments,
// a path outside the roots, cancellation, a timeout) are checked too.
// Usage: node mcp-clients.mjs REPO REGSCOPE TOOLS_DIR. Exit 77: node_modules missing.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [repo, regscope, tools] = process.argv.slice(2).map((p) => path.resolve(p));
const sdkDir = path.join(tools, "node_modules/@modelcontextprotocol/sdk/dist/esm");
const inspector = path.join(tools, "node_modules/@modelcontextprotocol/inspector/cli/build/cli.js");
if (!fs.existsSync(sdkDir) || !fs.existsSync(inspector)) {
  console.log(`SKIP: ${sdkDir} or ${inspector} missing (run scripts/install-test-tools.sh)`);
  process.exit(77);
}
const { Client } = await import(pathToFileURL(path.join(sdkDir, "client/index.js")));
const { StdioClientTransport } = await import(pathToFileURL(path.join(sdkDir, "client/stdio.js")));

let failures = 0;
async function check(name, body) {
  try {
    await body();
    console.log(`PASS ${name}`);
  } catch (e) {
    failures++;
    console.log(`FAIL ${name}: ${e.stack || e}`);
  }
}

// The CLI's JSON for the same input, run where the server runs its tools (the first root).
function cli(args, okCodes = [0]) {
  try {
    return JSON.parse(execFileSync(regscope, args, { cwd: repo, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }));
  } catch (e) {
    if (okCodes.includes(e.status)) return JSON.parse(e.stdout);
    throw e;
  }
}
const abs = (p) => path.join(repo, p);
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "regscope-mcp-test-"));
const pidFile = path.join(scratch, "compiler.pids");
const slow = abs("tests/mcp/slow-compiler.sh");
const lbm = abs("fixtures/hipcc-5.2.3/lbm-gfx90a.s");
const triton = abs("fixtures/triton/cache-gfx942");
const hip = abs("kernels/bitonic/bitonic.hip");
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const transport = new StdioClientTransport({
  command: regscope,
  args: ["mcp", "--root", repo],
  env: { ...process.env, REGSCOPE_MCP_PIDFILE: pidFile },
  stderr: "inherit",
});
const client = new Client({ name: "regscope-test", version: "1.0.0" });
await client.connect(transport);

try {
  await check("initialize: server info and protocol", async () => {
    assert.equal(client.getServerVersion().name, "regscope");
    assert.ok(client.getServerCapabilities().tools);
  });
  await check("tools/list: the five tools with schemas", async () => {
    const { tools: listed } = await client.listTools();
    assert.deepEqual(listed.map((t) => t.name).sort(), ["analyze", "explain", "gate", "occupancy", "parse"]);
    for (const t of listed) {
      assert.equal(t.inputSchema.type, "object");
      assert.equal(t.outputSchema.type, "object");
    }
  });

  const same = async (name, tool, args, cliArgs, okCodes, also = () => {}) => {
    await check(name, async () => {
      const result = await client.callTool({ name: tool, arguments: args });
      assert.equal(result.isError, false, JSON.stringify(result.content));
      assert.deepEqual(result.structuredContent, cli(cliArgs, okCodes));
      assert.equal(result.content[0].type, "text");
      also(result.structuredContent);
    });
  };
  await same("parse: an hipcc .s equals regscope parse --format json", "parse", { paths: [lbm] },
             ["parse", "--format", "json", "--progress", "never", lbm]);
  await same("parse: a Triton cache equals the CLI's", "parse", { paths: ["fixtures/triton/cache-gfx942"] },
             ["parse", "--format", "json", "--progress", "never", triton]);
  await same("occupancy: equals regscope occupancy --format json", "occupancy", { arch: "gfx90a", vgprs: 96, lds: 16384 },
             ["occupancy", "--format", "json", "--arch=gfx90a", "--vgprs=96", "--lds=16384"]);
  await same("occupancy: NVIDIA equals the CLI's", "occupancy", { arch: "sm_90", registers: 64, block_size: 256 },
             ["occupancy", "--format", "json", "--arch=sm_90", "--registers=64", "--block-size=256"]);
  const entry = path.join(triton, fs.readdirSync(triton).sort()[0]);
  await same("explain: a Triton cache entry equals regscope explain --format json", "explain", { files: [entry] },
             ["explain", "--format", "json", "--progress", "never", entry]);
  const hipcc = execFileSync("sh", ["-c", "command -v hipcc || true"], { encoding: "utf8" }).trim();
  if (hipcc) {
    await same("analyze: kernels/bitonic with hipcc equals regscope analyze --format json", "analyze",
               { files: [hip], offload_arch: ["gfx90a"] },
               ["analyze", "--format", "json", "--progress", "never", "--offload-arch=gfx90a", hip]);
    await same("gate: a passing verdict equals the CLI's", "gate", { files: [hip], offload_arch: ["gfx90a"], min_occupancy: 1 },
               ["gate", "--format", "json", "--progress", "never", "--offload-arch=gfx90a", "--min-occupancy=1", hip], [0],
               (r) => assert.equal(r.passed, true));
  } else {
    console.log("SKIP analyze/gate with hipcc: hipcc not on PATH");
  }
  // min_occupancy above what lbm reaches (4 waves/SIMD): a failed gate is a verdict, not a tool error.
  await same("gate: a failing verdict on lbm's .s equals regscope gate --format json (exit 1)", "gate",
             { files: [lbm], min_occupancy: 8 },
             ["gate", "--format", "json", "--progress", "never", "--min-occupancy=8", lbm], [1],
             (r) => assert.equal(r.passed, false));
  await check("gate: a Triton cache judged like the CLI", async () => {
    const result = await client.callTool({ name: "gate", arguments: { files: [triton], max_spills: 0 } });
    assert.equal(result.isError, result.structuredContent === undefined);
    const expected = cli(["gate", "--format", "json", "--progress", "never", "--max-spills=0", triton], [1, 2]);
    if (result.structuredContent) assert.deepEqual(result.structuredContent, expected);
  });

  // Bad calls: MCP errors, never a crash.
  await check("unknown tool: JSON-RPC error -32602", async () => {
    await assert.rejects(client.callTool({ name: "nosuch", arguments: {} }),
                         (e) => e.code === -32602 && /unknown tool 'nosuch'/.test(e.message));
  });
  await check("bad arguments: -32602 naming the argument", async () => {
    await assert.rejects(client.callTool({ name: "occupancy", arguments: { arch: "gfx90a", vgprs: "many" } }),
                         (e) => e.code === -32602 && /vgprs/.test(e.message));
    await assert.rejects(client.callTool({ name: "parse", arguments: { paths: [lbm], bogus: 1 } }),
                         (e) => e.code === -32602 && /bogus/.test(e.message));
    await assert.rejects(client.callTool({ name: "parse", arguments: {} }),
                         (e) => e.code === -32602 && /paths/.test(e.message));
  });
  await check("a path outside the roots: isError naming it, nothing read", async () => {
    const result = await client.callTool({ name: "parse", arguments: { paths: ["/etc/hostname"] } });
    assert.equal(result.isError, true);
    assert.match(result.content[0].text, /\/etc\/hostname is outside the server's roots/);
  });
  await check("a symlink under a root to a file outside: resolved and refused", async () => {
    const link = abs("build/mcp-test-escape.s");
    fs.rmSync(link, { force: true });
    fs.symlinkSync("/etc/hostname", link);
    try {
      const result = await client.callTool({ name: "parse", arguments: { paths: [link] } });
      assert.equal(result.isError, true);
      assert.match(result.content[0].text, /outside the server's roots/);
    } finally {
      fs.rmSync(link, { force: true });
    }
  });
  await check("a compiler outside the roots: refused", async () => {
    const result = await client.callTool({ name: "analyze", arguments: { files: [hip], compiler: "/bin/sleep" } });
    assert.equal(result.isError, true);
    assert.match(result.content[0].text, /\/bin\/sleep is outside the server's roots/);
  });
  await check("timeout: isError saying so, the compiler ended, progress reported", async () => {
    fs.rmSync(pidFile, { force: true });
    const progress = [];
    const result = await client.callTool({ name: "analyze", arguments: { files: [hip], compiler: slow, timeout: 2 } },
                                         undefined, { onprogress: (p) => progress.push(p), timeout: 60000 });
    assert.equal(result.isError, true);
    assert.match(result.content[0].text, /did not finish within --timeout 2 s/);
    assert.ok(progress.length >= 1, "no notifications/progress");
    const pids = fs.readFileSync(pidFile, "utf8").trim().split("\n").map(Number);
    for (const pid of pids) assert.ok(!alive(pid), `compiler ${pid} survived the timeout`);
  });
  await check("cancellation: notifications/cancelled ends that call's compiler, the server serves on", async () => {
    fs.rmSync(pidFile, { force: true });
    const abort = new AbortController();
    const call = client.callTool({ name: "analyze", arguments: { files: [hip], compiler: slow } }, undefined,
                                 { signal: abort.signal, timeout: 120000 });
    for (let i = 0; i < 200 && !fs.existsSync(pidFile); i++) await sleep(50);
    const pids = fs.readFileSync(pidFile, "utf8").trim().split("\n").map(Number);
    assert.ok(pids.every(alive), "the slow compiler is not running");
    abort.abort("test cancels");
    await assert.rejects(call);
    for (let i = 0; i < 100 && pids.some(alive); i++) await sleep(50);
    for (const pid of pids) assert.ok(!alive(pid), `compiler ${pid} survived the cancellation`);
    await client.ping();
    const after = await client.callTool({ name: "occupancy", arguments: { arch: "gfx90a", vgprs: 64 } });
    assert.equal(after.isError, false);
  });
  await check("cancelling one call stops no other", async () => {
    fs.rmSync(pidFile, { force: true });
    const abort = new AbortController();
    const cancelled = client.callTool({ name: "analyze", arguments: { files: [hip], compiler: slow } }, undefined,
                                      { signal: abort.signal, timeout: 120000 });
    const kept = client.callTool({ name: "analyze", arguments: { files: [hip], compiler: slow, timeout: 3 } },
                                 undefined, { timeout: 120000 });
    for (let i = 0; i < 200 && !(fs.existsSync(pidFile) && fs.readFileSync(pidFile, "utf8").trim().split("\n").length >= 2); i++)
      await sleep(50);
    abort.abort("test cancels one");
    await assert.rejects(cancelled);
    const result = await kept;  // ended by its own timeout, not by the other's cancel
    assert.equal(result.isError, true);
    assert.match(result.content[0].text, /did not finish within --timeout 3 s/);
  });
} finally {
  await client.close();
}

// The Inspector's CLI mode, as a user would run it.
function inspect(...args) {
  return JSON.parse(execFileSync(process.execPath, [inspector, "--cli", regscope, "mcp", "--root", repo, ...args],
                                 { cwd: repo, encoding: "utf8", timeout: 120000 }));
}
await check("Inspector --cli: tools/list", async () => {
  assert.deepEqual(inspect("--method", "tools/list").tools.map((t) => t.name).sort(),
                   ["analyze", "explain", "gate", "occupancy", "parse"]);
});
await check("Inspector --cli: tools/call occupancy equals the CLI's", async () => {
  const result = inspect("--method", "tools/call", "--tool-name", "occupancy", "--tool-arg", "arch=gfx942",
                         "--tool-arg", "vgprs=128");
  assert.deepEqual(result.structuredContent,
                   cli(["occupancy", "--format", "json", "--arch=gfx942", "--vgprs=128"]));
});
await check("Inspector --cli: tools/call parse equals the CLI's", async () => {
  const result = inspect("--method", "tools/call", "--tool-name", "parse", "--tool-arg", `paths=["${lbm}"]`);
  assert.deepEqual(result.structuredContent, cli(["parse", "--format", "json", "--progress", "never", lbm]));
});

fs.rmSync(scratch, { recursive: true, force: true });
console.log(failures ? `${failures} FAILED` : "all passed");
process.exit(failures ? 1 : 0);
