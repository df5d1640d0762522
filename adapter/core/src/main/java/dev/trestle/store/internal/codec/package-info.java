/**
 * How values are stored: properties JSON, type tags, ticks, ETags, continuation tokens, access
 * policies, and text whose code-point order is UTF-16 order. Private API.
 */
package dev.trestle.store.internal.codec;
