#include "FleetAuthBuildInfo.h"

#ifndef FLEETAUTH_VERSION
#define FLEETAUTH_VERSION "unknown"
#endif
#ifndef FLEETAUTH_BUILD_COMMIT
#define FLEETAUTH_BUILD_COMMIT ""
#endif

const char *fleetauth_build_version(void) { return FLEETAUTH_VERSION; }

const char *fleetauth_build_commit(void) { return FLEETAUTH_BUILD_COMMIT; }
