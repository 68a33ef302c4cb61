// The backend registry: each input and record reaches its vendor's backend,
// and the vendor-neutral entry points answer with that backend's words.
// The expected values are written out here, not asked of the code under test.
#include <gtest/gtest.h>

#include "regscope/backend/backend.h"
#include "regscope/support/error.h"

namespace regscope {
namespace {

TEST(BackendRegistry, EachVendorHasTheBackendOfThatVendor) {
  for (Vendor v : {Vendor::Amd, Vendor::Nvidia, Vendor::Intel}) EXPECT_EQ(backendFor(v).vendor(), v);
}

TEST(BackendRegistry, OclocInputsGoToIntelCudaTargetsToNvidiaTheRestToAmd) {
  RequestedTargets hip;
  hip.archs = {"gfx90a"};
  RequestedTargets cuda;
  cuda.cuda_archs = {"sm_90"};
  EXPECT_EQ(backendForSource("/p/k.cl", hip).vendor(), Vendor::Intel);
  EXPECT_EQ(backendForSource("/p/k.spv", cuda).vendor(), Vendor::Intel);
  EXPECT_EQ(backendForSource("/p/k.hip", hip).vendor(), Vendor::Amd);
  EXPECT_EQ(backendForSource("/p/k.cu", hip).vendor(), Vendor::Amd);
  EXPECT_EQ(backendForSource("/p/k.cu", cuda).vendor(), Vendor::Nvidia);
  EXPECT_EQ(backendForSource("/p/k.hip", cuda).vendor(), Vendor::Nvidia);
  EXPECT_TRUE(compiledPerGrfMode("/p/k.cl"));
  EXPECT_FALSE(compiledPerGrfMode("/p/k.hip"));
}

TEST(BackendRegistry, UnitsAreEachVendorsOwn) {
  EXPECT_STREQ(occupancyUnit(Vendor::Amd), "waves/SIMD");
  EXPECT_STREQ(occupancyUnit(Vendor::Nvidia), "warps/SM");
  EXPECT_STREQ(occupancyUnit(Vendor::Intel), "threads/Xe-core");
  EXPECT_STREQ(spillsUnit(Vendor::Amd), "spilled registers");
  EXPECT_STREQ(spillsUnit(Vendor::Nvidia), "bytes of spill stores");
  EXPECT_STREQ(spillsUnit(Vendor::Intel), "bytes of spill per thread");
}

TEST(BackendRegistry, RequestedTargetsAreCheckedByTheirBackend) {
  RequestedTargets bad_cuda;
  bad_cuda.cuda_archs = {"sm_1"};
  EXPECT_THROW(checkRequestedTargets(bad_cuda), Error);
  RequestedTargets bad_amd;
  bad_amd.archs = {"gfx1"};
  EXPECT_THROW(checkRequestedTargets(bad_amd), Error);
  RequestedTargets good;
  good.archs = {"gfx90a"};
  good.cuda_archs = {"sm_90"};
  EXPECT_NO_THROW(checkRequestedTargets(good));
  // AMD targets are given to hipcc in their canonical spelling; NVIDIA's as named.
  RequestedTargets mi250;
  mi250.archs = {"MI250X"};
  EXPECT_EQ(backendFor(Vendor::Amd).compileTargets(mi250), std::vector<std::string>{"gfx90a"});
  EXPECT_EQ(backendFor(Vendor::Nvidia).compileTargets(good), std::vector<std::string>{"sm_90"});
}

TEST(BackendRegistry, ARecordOfAnUnknownTargetIsAWarningNotAModel) {
  KernelRecord record;
  record.vendor = Vendor::Nvidia;
  record.arch = "sm_1";
  record.demangled = "k";
  std::string warning;
  EXPECT_FALSE(modelRecord(record, {}, "", warning));
  EXPECT_EQ(warning.rfind("no occupancy table for sm_1 (kernel k); known: sm_75", 0), 0u) << warning;
  EXPECT_EQ(backendFor(Vendor::Nvidia).unknownTarget(record).rfind("unknown arch 'sm_1' (kernel k); known: ", 0), 0u);
  record.arch = "sm_90";
  EXPECT_EQ(backendFor(Vendor::Nvidia).unknownTarget(record), "");
}

TEST(BackendRegistry, MissingFiguresAreTheRecordsBackendsOwn) {
  KernelRecord cuda;
  cuda.vendor = Vendor::Nvidia;
  cuda.arch = "sm_90";
  EXPECT_EQ(missingFigures(cuda),
            (std::vector<Field>{Field::Registers, Field::StackBytes, Field::SpillStoreBytes, Field::SpillLoadBytes}));
  KernelRecord intel;
  intel.vendor = Vendor::Intel;
  intel.arch = "pvc";
  EXPECT_EQ(missingFigures(intel), (std::vector<Field>{Field::GrfCount, Field::SimdSize}));
  // gfx90a has AGPRs: without the allocation both counts are needed.
  KernelRecord amd;
  amd.vendor = Vendor::Amd;
  amd.arch = "gfx90a";
  EXPECT_EQ(missingFigures(amd), (std::vector<Field>{Field::Vgprs, Field::Agprs, Field::Sgprs, Field::LdsBytes,
                                                     Field::ScratchBytes, Field::VgprSpills, Field::SgprSpills}));
}

}  // namespace
}  // namespace regscope
