/* convert.h — `cimport convert`: turns a Terraform state or another stack's `pulumi stack export`
 * into an import file, with a summary of what was converted, skipped and left unmapped.
 *
 * Exit codes: 0 every resource converted (data sources and the like skipped), 1 some resources
 * unmapped or without an import ID (the others are written), 2 bad usage or bad input (nothing
 * written). The library side (migrate/convert.h) is included for callers that load a Terraform state
 * as an offline snapshot. */
#ifndef CIMPORT_CLI_CONVERT_H
#define CIMPORT_CLI_CONVERT_H

#include "migrate/convert.h"

/* argv[0] is "convert". May print (progress and the summary on stderr, the import file on stdout
 * unless -o). */
int cli_convert_main(int argc, char **argv);

#endif
