/**
 * Lexer, parser and value comparison behind {@code dev.trestle.filter}. Private API: no
 * compatibility guarantees.
 */
package dev.trestle.filter.internal;
