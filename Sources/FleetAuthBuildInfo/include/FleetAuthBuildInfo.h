// What `fleetauth --version` says: the release's version and the commit it was built from.
// Package.swift defines both for this target alone (from the VERSION file and
// $FLEETAUTH_BUILD_COMMIT, which scripts/release.sh sets), so a new commit id recompiles one C
// file and relinks, nothing else.
#ifndef FLEETAUTH_BUILD_INFO_H
#define FLEETAUTH_BUILD_INFO_H

/// The release's version, as the VERSION file at the package's root spells it.
const char *fleetauth_build_version(void);

/// The commit the binary was built from, or "" when the build did not say (a development build).
const char *fleetauth_build_commit(void);

#endif
