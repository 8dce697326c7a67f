/* SPDX-License-Identifier: MIT */
/*
 * The fleet database's SQLite schema (`baretop-host fleet`, the SQLite
 * engine of fleet-store.h): BT_FLEET_SCHEMA, kept in step with
 * docs/fleet-schema.md.
 */
#ifndef TOOLS_BARETOP_HOST_FLEET_DB_H
#define TOOLS_BARETOP_HOST_FLEET_DB_H

extern const char BT_FLEET_SCHEMA[];

#endif
