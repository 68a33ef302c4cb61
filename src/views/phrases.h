// The phrases the views use: the shared ones (describe/phrases.h) and each
// backend's words for its model's figures. Views and writers only; internal header.
#pragma once

#include "regscope/backends/amd/phrases.h"
#include "regscope/backends/intel/phrases.h"
#include "regscope/backends/nvidia/phrases.h"
#include "regscope/describe/phrases.h"
