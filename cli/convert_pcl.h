/* convert_pcl.h — `cimport convert --from pcl`: PCL in, program code out. */
#ifndef CIMPORT_CONVERT_PCL_H
#define CIMPORT_CONVERT_PCL_H

#include <stdbool.h>

/* Whether a `convert` command line asks for --from pcl. */
bool cli_convert_is_pcl(int argc, char **argv);
int cli_convert_pcl_main(int argc, char **argv);

#endif
