#include "regscope/model/limiter.h"

namespace regscope {

const char *limiterName(Limiter limiter) {
  switch (limiter) {
    case Limiter::None:
      return "none";
    case Limiter::Vgpr:
      return "vgpr";
    case Limiter::Sgpr:
      return "sgpr";
    case Limiter::Lds:
      return "lds";
    case Limiter::Workgroup:
      return "workgroup";
    case Limiter::Registers:
      return "registers";
    case Limiter::Shared:
      return "shared";
    case Limiter::Warps:
      return "warps";
    case Limiter::Blocks:
      return "blocks";
    case Limiter::Barriers:
      return "barriers";
    case Limiter::Invalid:
      return "invalid";
    case Limiter::Unresolved:
      return "unresolved";
    case Limiter::ThreadSlots:
      return "threads";
    case Limiter::Slm:
      return "slm";
    case Limiter::Unknown:
      return "unknown";
  }
  return "?";
}

}  // namespace regscope
