// The five LBM variants each define `kernel`; one namespace each keeps their
// symbols apart in one binary. The seed sources are included unchanged.
#include "gpu.h"
#include "lbm_params.h"

namespace lbm_v1 {
#include "../lbm/lbm.hip"
}
namespace lbm_v2 {
#include "../lbm/lbm_nopow.hip"
}
namespace lbm_v3 {
#include "../lbm/lbm_rearrange.hip"
}
namespace lbm_v4 {
#include "../lbm/lbm_restrict_g14.hip"
}
namespace lbm_v5 {
#include "../lbm/lbm_restrict_g7.hip"
}

// Threads cover i, j, z in [0, nx], [0, ny], [0, nz] (the kernel's bounds are inclusive).
void launch_lbm(int variant, double **a, int nx, int ny, int nz, int ldx, int ldy, int current, int next) {
  dim3 block(64, 2, 2);
  dim3 grid(nx / block.x + 1, ny / block.y + 1, nz / block.z + 1);
  switch (variant) {
    case 0: lbm_v1::kernel<<<grid, block>>>(LBM_ARRAYS(a), nx, ny, nz, ldx, ldy, current, next, LBM_CONSTANTS); break;
    case 1: lbm_v2::kernel<<<grid, block>>>(LBM_ARRAYS(a), nx, ny, nz, ldx, ldy, current, next, LBM_CONSTANTS); break;
    case 2: lbm_v3::kernel<<<grid, block>>>(LBM_ARRAYS(a), nx, ny, nz, ldx, ldy, current, next, LBM_CONSTANTS); break;
    case 3: lbm_v4::kernel<<<grid, block>>>(LBM_ARRAYS(a), nx, ny, nz, ldx, ldy, current, next, LBM_CONSTANTS); break;
    default: lbm_v5::kernel<<<grid, block>>>(LBM_ARRAYS(a), nx, ny, nz, ldx, ldy, current, next, LBM_CONSTANTS); break;
  }
}
