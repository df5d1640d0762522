/** Moving entities in and out: typed NDJSON export and import, and copies between databases. */
package dev.trestle.cli.transfer;
