/**
 * Where the CLI's settings come from: flags, then {@code TRESTLE_*} variables, then a properties
 * file, then defaults.
 */
package dev.trestle.cli.config;
