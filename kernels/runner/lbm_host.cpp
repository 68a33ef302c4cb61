// The CPU reference for the LBM kernels: the seed's original kernel source
// (kernels/lbm/lbm.hip), turned into a host function by CMake at configure
// time (lbm_host_kernel.inc: the include dropped, thread indices passed in).
// The GPU variants must match it.
#include <cmath>

#include "lbm_params.h"

struct Dim3 {
  int x, y, z;
};

namespace lbm_host {
using std::pow;
#include "lbm_host_kernel.inc"
}

void lbm_host_reference(double **a, int nx, int ny, int nz, int ldx, int ldy, int current, int next) {
  const Dim3 zero{0, 0, 0}, one{1, 1, 1};
  for (int z = 0; z <= nz; ++z)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i)
        lbm_host::kernel(Dim3{i, j, z}, zero, one, LBM_ARRAYS(a), nx, ny, nz, ldx, ldy, current, next, LBM_CONSTANTS);
}
