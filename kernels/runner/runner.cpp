// regscope-runner: runs the reference kernels on the GPU that is present,
// verifies each result against a CPU reference, and times it with device
// events (median of --repeat runs after warm-up). No LLVM; HIP or CUDA.
//
//   regscope-runner [--case NAME|FAMILY]... [--size N] [--repeat R] [--json]
//                   [--laplacian-sweep]
// Exit codes: 0 all verified; 1 a result was wrong; 2 bad usage; 3 no GPU.
#define REGSCOPE_RUNNER 1
#include "gpu.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "../bitonic/bitonic.hip"
#include "../laplacian/laplacian.hip"
#include "../unroll/ax.hip"
#include "../wideload/wideload.hip"
#include "verify.h"

// The LBM variants each define `kernel`; lbm_variants.cpp wraps them in namespaces.
void launch_lbm(int variant, double **arrays, int nx, int ny, int nz, int ldx, int ldy, int current, int next);
void lbm_host_reference(double **arrays, int nx, int ny, int nz, int ldx, int ldy, int current, int next);

namespace {

struct Options {
  std::vector<std::string> cases;  // names or families; empty: all
  int size = 0;                    // family-specific problem size; 0: default
  int repeat = 10;
  bool json = false;
  bool sweep = false;
};

struct Result {
  std::string family, name, kernels;
  double ms = 0;
  double bandwidth = -1;     // GB/s, where the seed defines one
  double baseline_ms = 0;    // the family's baseline, for the speedup; 0: the baseline did not run
  bool verified = false;
  std::string detail;
};

#define GPU_CHECK(call)                                                                                 \
  do {                                                                                                  \
    hipError_t e_ = (call);                                                                             \
    if (e_ != hipSuccess) {                                                                             \
      std::fprintf(stderr, "regscope-runner: %s failed: %s\n", #call, hipGetErrorString(e_));          \
      std::exit(1);                                                                                     \
    }                                                                                                   \
  } while (0)

template <typename T>
struct DeviceBuffer {
  T *ptr = nullptr;
  std::size_t n = 0;
  explicit DeviceBuffer(std::size_t count) : n(count) { GPU_CHECK(hipMalloc(&ptr, count * sizeof(T))); }
  DeviceBuffer(const std::vector<T> &host) : DeviceBuffer(host.size()) { upload(host); }
  ~DeviceBuffer() { (void)hipFree(ptr); }
  void upload(const std::vector<T> &host) { GPU_CHECK(hipMemcpy(ptr, host.data(), n * sizeof(T), hipMemcpyHostToDevice)); }
  std::vector<T> download() const {
    std::vector<T> host(n);
    GPU_CHECK(hipMemcpy(host.data(), ptr, n * sizeof(T), hipMemcpyDeviceToHost));
    return host;
  }
};

// A kernel that could not be launched (registers, shared memory): the case
// fails with this message, the others go on.
struct LaunchError {
  std::string message;
};

void checkLaunch() {
  hipError_t e = hipGetLastError();
  if (e != hipSuccess) throw LaunchError{std::string("cannot launch: ") + hipGetErrorString(e)};
}

// Median milliseconds of `launch` over `repeat` runs after two warm-ups.
double timeIt(const std::function<void()> &launch, int repeat) {
  hipEvent_t start, stop;
  GPU_CHECK(hipEventCreate(&start));
  GPU_CHECK(hipEventCreate(&stop));
  for (int i = 0; i < 2; ++i) {
    launch();
    checkLaunch();
  }
  GPU_CHECK(hipDeviceSynchronize());
  std::vector<double> times;
  for (int i = 0; i < repeat; ++i) {
    GPU_CHECK(hipEventRecord(start, 0));
    launch();
    GPU_CHECK(hipEventRecord(stop, 0));
    GPU_CHECK(hipEventSynchronize(stop));
    float ms = 0;
    GPU_CHECK(hipEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  GPU_CHECK(hipEventDestroy(start));
  GPU_CHECK(hipEventDestroy(stop));
  return verify::median(times);
}

// Records a finished case: its verdict, what it ran on, and the family's
// baseline time for the speedup (the first case of a family is its baseline).
void record(std::vector<Result> &results, Result r, const verify::Check &c, const std::string &what, bool is_baseline,
            double &baseline) {
  r.verified = c.ok;
  r.detail = what + (c.ok ? "" : ": " + c.message);
  if (is_baseline) baseline = r.ms;
  r.baseline_ms = baseline;
  results.push_back(std::move(r));
}

std::vector<double> randomDoubles(std::size_t n, unsigned seed, double lo = -1, double hi = 1) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<double> v(n);
  for (double &x : v) x = dist(rng);
  return v;
}

bool wanted(const Options &o, const std::string &family, const std::string &name) {
  if (o.cases.empty()) return true;
  for (const std::string &c : o.cases)
    if (c == family || c == name) return true;
  return false;
}

// Whether any case of a family is asked for (so its inputs are worth making).
bool anyWanted(const Options &o, const std::string &family, std::initializer_list<const char *> names) {
  for (const char *name : names)
    if (wanted(o, family, name)) return true;
  return false;
}

double copyBandwidth(int repeat) {
  const std::size_t bytes = std::size_t(1) << 30;
  DeviceBuffer<char> a(bytes), b(bytes);
  GPU_CHECK(hipMemset(a.ptr, 1, bytes));
  double ms = timeIt([&] { GPU_CHECK(hipMemcpy(b.ptr, a.ptr, bytes, hipMemcpyDeviceToDevice)); }, repeat);
  return 2.0 * bytes / (ms * 1e6);  // bytes read + written, GB/s
}

// ---- Laplacian (seed 003) ----
void runLaplacian(const Options &o, std::vector<Result> &results, int nx, int ny, int nz, bool check_cpu) {
  const char *names[] = {"laplacian_naive", "laplacian_k5", "laplacian_k6", "laplacian_k7"};
  if (!anyWanted(o, "laplacian", {names[0], names[1], names[2], names[3]})) return;
  const int variants[] = {0, 5, 6, 7};
  const std::size_t n = (std::size_t)nx * ny * nz;
  std::vector<double> u = randomDoubles(n, 3);
  DeviceBuffer<double> du(u), df(n);
  std::vector<double> reference(n, 0.0);
  if (check_cpu) verify::laplacianReference(u, reference, nx, ny, nz, 1.0, 1.0, 1.0);
  double baseline = 0;
  for (int v = 0; v < 4; ++v) {
    if (!wanted(o, "laplacian", names[v])) continue;
    GPU_CHECK(hipMemset(df.ptr, 0, n * sizeof(double)));
    Result r{"laplacian", names[v], names[v]};
    r.ms = timeIt([&] { launch_laplacian(variants[v], df.ptr, du.ptr, nx, ny, nz, 1.0, 1.0, 1.0); }, o.repeat);
    r.bandwidth = verify::laplacianBytes(nx, ny, nz) / (r.ms * 1e6);
    std::vector<double> got = df.download();
    if (!check_cpu) {  // the sweep compares against the naive kernel's output
      if (v == 0) reference = got;
    }
    verify::Check c = verify::compareInterior(got, reference, nx, ny, nz, 1e-12);
    record(results, r, c, std::to_string(nx) + "x" + std::to_string(ny) + "x" + std::to_string(nz), v == 0,
           baseline);
  }
}

// ---- wide loads (seed 004) ----
void runWideLoads(const Options &o, std::vector<Result> &results) {
  const char *names[] = {"max_baseline", "max_wide_small", "max_wide_both", "max_baseline_lb",
                         "max_wide_small_lb", "max_wide_both_lb", "max_baseline_512x2"};
  if (!anyWanted(o, "wideload", {names[0], names[1], names[2], names[3], names[4], names[5], names[6]})) return;
  const int ptmax = o.size ? o.size : 1 << 21;
  std::vector<double> big = randomDoubles((std::size_t)KMAX * ptmax, 4), small = randomDoubles(KMAX, 5);
  std::vector<double> reference(ptmax);
  verify::maxReference(big, small, reference, ptmax, KMAX);
  DeviceBuffer<double> dbig(big), dsmall(small), dout(ptmax);
  double baseline = 0;
  for (int v = 0; v < 7; ++v) {
    if (!wanted(o, "wideload", names[v])) continue;
    GPU_CHECK(hipMemset(dout.ptr, 0, ptmax * sizeof(double)));
    Result r{"wideload", names[v], names[v]};
    hipFuncAttributes attr;
    GPU_CHECK(hipFuncGetAttributes(&attr, wideload_function(v)));
    r.ms = timeIt([&] { launch_wideload(v, dbig.ptr, dsmall.ptr, dout.ptr, ptmax); }, o.repeat);
    r.bandwidth = ((double)KMAX * ptmax + ptmax) * sizeof(double) / (r.ms * 1e6);
    verify::Check c = verify::compareExact(dout.download(), reference);
    record(results, r, c, "block " + std::to_string(wideload_block(v)) + ", " + std::to_string(attr.numRegs) + " registers",
           v == 0, baseline);
  }
}

// ---- bitonic sort (seed 001) ----
void runBitonic(const Options &o, std::vector<Result> &results) {
  if (!anyWanted(o, "bitonic", {"bitonic_float", "bitonic_int"})) return;
  const int n = o.size ? o.size : 1 << 24;
  std::mt19937 rng(6);
  std::uniform_real_distribution<float> dist(-1000, 1000);
  std::vector<float> input(n);
  for (float &x : input) x = dist(rng);
  DeviceBuffer<float> pristine(input), a(n), b(n);
  double baseline = 0;
  for (int v = 0; v < 2; ++v) {
    const char *name = v == 0 ? "bitonic_float" : "bitonic_int";
    if (!wanted(o, "bitonic", name)) continue;
    Result r{"bitonic", name, name};
    float *sorted = nullptr;
    r.ms = timeIt([&] {  // restore the input on the device: a 64 MB copy, not a host upload
      GPU_CHECK(hipMemcpy(a.ptr, pristine.ptr, n * sizeof(float), hipMemcpyDeviceToDevice));
      sorted = run_bitonic(v == 1, a.ptr, b.ptr, n);
    }, o.repeat);
    std::vector<float> got(n);
    GPU_CHECK(hipMemcpy(got.data(), sorted, n * sizeof(float), hipMemcpyDeviceToHost));
    verify::Check c = verify::sortedPermutation(input, got);
    record(results, r, c, std::to_string(n) + " floats", v == 0, baseline);
  }
}

// ---- unrolling (seed 002) ----
void runAx(const Options &o, std::vector<Result> &results) {
  if (!anyWanted(o, "unroll", {"ax_rolled", "ax_unrolled"})) return;
  const int nelt = o.size ? o.size : 16384;
  const int pts = NX1 * NX1 * NX1;
  std::vector<double> u = randomDoubles((std::size_t)pts * nelt, 7), g = randomDoubles((std::size_t)6 * pts * nelt, 8),
                      D = randomDoubles(NX1 * NX1, 9), reference((std::size_t)pts * nelt);
  for (int e = 0; e < nelt; ++e) verify::axReference(&u[(std::size_t)e * pts], &g[(std::size_t)6 * e * pts], D.data(),
                                                     &reference[(std::size_t)e * pts], NX1);
  DeviceBuffer<double> du(u), dg(g), dD(D), dw((std::size_t)pts * nelt);
  double baseline = 0;
  for (int v = 0; v < 2; ++v) {
    const char *name = v == 0 ? "ax_rolled" : "ax_unrolled";
    if (!wanted(o, "unroll", name)) continue;
    Result r{"unroll", name, name};
    r.ms = timeIt([&] { launch_ax(v == 1, dw.ptr, du.ptr, dg.ptr, dD.ptr, nelt); }, o.repeat);
    r.bandwidth = (8.0 * pts * nelt + NX1 * NX1) * sizeof(double) / (r.ms * 1e6);  // u, 6 g, w
    verify::Check c = verify::compareRelative(dw.download(), reference, 1e-12);
    record(results, r, c, std::to_string(nelt) + " elements", v == 0, baseline);
  }
}

// ---- LBM (seed 000) ----
void runLbm(const Options &o, std::vector<Result> &results) {
  const char *names[] = {"lbm", "lbm_nopow", "lbm_rearrange", "lbm_restrict_g14", "lbm_restrict_g7"};
  if (!anyWanted(o, "lbm", {names[0], names[1], names[2], names[3], names[4]})) return;
  const int n = o.size ? o.size : 128;  // interior points per dimension
  const int ldx = n + 2, ldy = n + 2, ldz = n + 2;
  const int plane = ldx * ldy, volume = plane * ldz;
  const int current = 0, next = volume;  // read [0, volume), write around [volume, 2 volume)
  const std::size_t length = (std::size_t)2 * volume + plane + ldx + 2;
  const int kArrays = 31;  // phi .. grad_phi_z, f0..f6, g0..g18
  std::vector<std::vector<double>> host(kArrays);
  for (int a = 0; a < kArrays; ++a) host[a] = randomDoubles(length, 100 + a, 0.5, 1.5);  // rho must not be 0
  std::vector<std::vector<double>> reference = host;
  std::vector<double *> ref_ptrs;
  for (auto &v : reference) ref_ptrs.push_back(v.data());
  lbm_host_reference(ref_ptrs.data(), n - 1, n - 1, n - 1, ldx, ldy, current, next);
  double baseline = 0;
  for (int v = 0; v < 5; ++v) {
    if (!wanted(o, "lbm", names[v])) continue;
    std::vector<DeviceBuffer<double> *> buffers;
    std::vector<double *> ptrs;
    for (auto &h : host) {
      buffers.push_back(new DeviceBuffer<double>(h));
      ptrs.push_back(buffers.back()->ptr);
    }
    Result r{"lbm", names[v], "kernel"};
    // The kernel updates f0..f6 and g0 in place: verify one launch on fresh
    // inputs, then time repeated launches.
    launch_lbm(v, ptrs.data(), n - 1, n - 1, n - 1, ldx, ldy, current, next);
    checkLaunch();
    verify::Check worst;
    for (int a = 0; a < kArrays; ++a) {
      verify::Check c = verify::compareRelative(buffers[a]->download(), reference[a], 1e-10);
      if (c.max_error >= worst.max_error) worst = c;
    }
    r.ms = timeIt([&] { launch_lbm(v, ptrs.data(), n - 1, n - 1, n - 1, ldx, ldy, current, next); }, o.repeat);
    for (auto *b : buffers) delete b;
    record(results, r, worst, std::to_string(n) + "^3 points", v == 0, baseline);
  }
}

void print(const std::vector<Result> &results, const hipDeviceProp_t &prop, double copy_gbs, bool json) {
  if (json) {
#if defined(__HIP_PLATFORM_AMD__)
    const std::string arch = std::string(prop.gcnArchName).substr(0, std::string(prop.gcnArchName).find(':'));
#else
    const std::string arch = "sm_" + std::to_string(prop.major) + std::to_string(prop.minor);
#endif
    std::printf("{\"device\": \"%s\", \"platform\": \"%s\", \"arch\": \"%s\", \"compute_capability\": \"%d.%d\", "
                "\"copy_bandwidth_gbs\": %.1f, \"cases\": [\n", prop.name, GPU_PLATFORM, arch.c_str(), prop.major,
                prop.minor, copy_gbs);
    for (std::size_t i = 0; i < results.size(); ++i) {
      const Result &r = results[i];
      std::printf("  {\"family\": \"%s\", \"name\": \"%s\", \"kernel\": \"%s\", \"ms\": %.4f, \"bandwidth_gbs\": %s, "
                  "\"speedup\": %s, \"verified\": %s, \"detail\": \"%s\"}%s\n",
                  r.family.c_str(), r.name.c_str(), r.kernels.c_str(), r.ms,
                  r.bandwidth < 0 ? "null" : std::to_string(r.bandwidth).c_str(),
                  r.baseline_ms > 0 ? std::to_string(r.baseline_ms / r.ms).c_str() : "null",
                  r.verified ? "true" : "false", r.detail.c_str(), i + 1 < results.size() ? "," : "");
    }
    std::printf("]}\n");
    return;
  }
  std::printf("%s (%s, CC %d.%d): device copy %.0f GB/s\n", prop.name, GPU_PLATFORM, prop.major, prop.minor, copy_gbs);
  std::printf("%-10s %-20s %10s %10s %7s %8s  %s\n", "FAMILY", "CASE", "TIME ms", "GB/s", "%COPY", "SPEEDUP", "CHECK");
  for (const Result &r : results) {
    char speedup[32] = "-";
    if (r.baseline_ms > 0) std::snprintf(speedup, sizeof speedup, "%.2fx", r.baseline_ms / r.ms);
    std::printf("%-10s %-20s %10.3f %10s %7s %8s  %s %s\n", r.family.c_str(), r.name.c_str(), r.ms,
                r.bandwidth < 0 ? "-" : std::to_string((int)r.bandwidth).c_str(),
                r.bandwidth < 0 ? "-" : std::to_string((int)(100 * r.bandwidth / copy_gbs)).c_str(), speedup,
                r.verified ? "ok" : "WRONG", r.detail.c_str());
  }
}

}  // namespace

int main(int argc, char **argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) { std::fprintf(stderr, "regscope-runner: %s needs a value\n", a.c_str()); std::exit(2); }
      return argv[++i];
    };
    if (a == "--case") o.cases.push_back(value());
    else if (a == "--size") o.size = std::atoi(value().c_str());
    else if (a == "--repeat") o.repeat = std::max(1, std::atoi(value().c_str()));
    else if (a == "--json") o.json = true;
    else if (a == "--laplacian-sweep") o.sweep = true;
    else { std::fprintf(stderr, "regscope-runner: unknown argument %s\n", a.c_str()); return 2; }
  }
  int devices = 0;
  if (hipGetDeviceCount(&devices) != hipSuccess || devices == 0) {
    std::fprintf(stderr, "regscope-runner: no GPU found (%s runtime)\n", GPU_PLATFORM);
    return 3;
  }
  hipDeviceProp_t prop;
  GPU_CHECK(hipGetDeviceProperties(&prop, 0));
  const double copy_gbs = copyBandwidth(o.repeat);

  std::vector<Result> results;
  auto guarded = [&](const char *family, const std::function<void()> &run) {
    try {
      run();
    } catch (const LaunchError &e) {
      Result r{family, family, family};
      r.detail = e.message;
      r.ms = 0;  // nothing ran: no time, no speedup
      results.push_back(r);
      (void)hipGetLastError();
    }
  };
  if (o.sweep) {  // the L2 cliff: xy planes from 2 MB to 50 MB (seed 003 section 4.4.2)
    for (int side : {512, 1024, 1448, 2048, 2560, 3072}) {
      const int nz = std::max(16, (1 << 27) / (side * side));
      guarded("laplacian", [&] { runLaplacian(o, results, side, side, nz, false); });
    }
  } else {
    const int side = o.size ? o.size : 512;
    guarded("laplacian", [&] { runLaplacian(o, results, side, side, side, true); });
    Options rest = o;
    rest.size = 0;  // --size is the Laplacian's side unless a single family is asked for
    if (o.cases.size() == 1) rest.size = o.size;
    guarded("wideload", [&] { runWideLoads(rest, results); });
    guarded("bitonic", [&] { runBitonic(rest, results); });
    guarded("unroll", [&] { runAx(rest, results); });
    guarded("lbm", [&] { runLbm(rest, results); });
  }
  print(results, prop, copy_gbs, o.json);
  for (const Result &r : results)
    if (!r.verified) {
      std::fprintf(stderr, "regscope-runner: %s/%s gave a wrong result: %s\n", r.family.c_str(), r.name.c_str(),
                   r.detail.c_str());
      return 1;
    }
  return 0;
}
