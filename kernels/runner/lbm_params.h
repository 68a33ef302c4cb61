// The LBM kernel's physical constants, shared by the GPU launch and the CPU
// reference (values chosen to keep every step finite, not physical).
#pragma once
#define LBM_CONSTANTS 0.01 /*k*/, 0.5 /*alpha*/, 0.25 /*phi2*/, 0.1 /*gamma*/, 0.8 /*itauphi*/, \
    0.2 /*itauphi1*/, 0.3 /*ieta*/, 0.7 /*itaurho*/, 0.0 /*grav*/, 0.05 /*eg1*/, 0.025 /*eg2*/, \
    0.3 /*eg0*/, 0.1 /*egc0*/, 0.05 /*egc1*/, 0.025 /*egc2*/
#define LBM_ARRAYS(a) a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], \
    a[14], a[15], a[16], a[17], a[18], a[19], a[20], a[21], a[22], a[23], a[24], a[25], a[26], a[27], a[28],  \
    a[29], a[30]
