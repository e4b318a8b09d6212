// sweep's release number, for code that checks what it builds against (as THRUST_VERSION does for
// Thrust). The one place it is written: CMakeLists.txt reads it from here for project(sweep VERSION)
// and the installed package's sweepConfigVersion.cmake.
#pragma once

//! The release as one number: major * 100000 + minor * 100 + patch (Thrust's encoding).
#define SWEEP_VERSION 200
//! The parts of SWEEP_VERSION.
#define SWEEP_MAJOR_VERSION (SWEEP_VERSION / 100000)
#define SWEEP_MINOR_VERSION (SWEEP_VERSION / 100 % 1000)
#define SWEEP_PATCH_VERSION (SWEEP_VERSION % 100)
