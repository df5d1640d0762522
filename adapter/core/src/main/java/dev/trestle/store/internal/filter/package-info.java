/** The parsed {@code $filter} as jOOQ conditions, every literal a bind value. Private API. */
package dev.trestle.store.internal.filter;
