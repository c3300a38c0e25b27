// SPDX-License-Identifier: GPL-2.0
#include "commands.h"

int cmd_verify(int argc, char **argv)
{
	die("not yet");
}
