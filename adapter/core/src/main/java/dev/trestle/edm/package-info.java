/**
 * The text forms of EDM values, one class per type: JSON forms, filter literals, and their
 * validation.
 */
package dev.trestle.edm;
