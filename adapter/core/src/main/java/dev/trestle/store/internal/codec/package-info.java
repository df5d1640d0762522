/** How values are stored: properties JSON, type tags, ticks, ETags, continuation tokens, access policies. Private API. */
package dev.trestle.store.internal.codec;
