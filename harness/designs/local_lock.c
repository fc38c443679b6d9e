/* SPDX-License-Identifier: MIT */
#include "../../kernels/locks/local_lock.h"
#include "../loop.h"

PCB_DEFINE_DESIGN("local_lock_irqsave() on the owner; drains are work scheduled on the owning CPU",
		  "mm/memcontrol.c v6.2, upstream before seed 000's series");
