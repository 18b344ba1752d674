// API surface for type-checking generated programs (not the library: bodies throw).
// Gson's JsonElement (com.google.gson, which pulumi-java's SDK uses for a schema's Json type:
// an output type's getter of a Json property gives a JsonElement) as far as programs use it.
package com.google.gson;

public abstract class JsonElement {
    public boolean isJsonPrimitive() {
        throw new UnsupportedOperationException();
    }

    public String getAsString() {
        throw new UnsupportedOperationException();
    }
}
