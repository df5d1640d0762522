/**
 * The Table data model's limits and their validation: names, keys, property values and entity size.
 */
package dev.trestle.model;
