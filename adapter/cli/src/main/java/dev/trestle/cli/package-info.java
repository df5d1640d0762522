/** The {@code trestle} command line: serve, migrate, export, import, copy and version. */
package dev.trestle.cli;
