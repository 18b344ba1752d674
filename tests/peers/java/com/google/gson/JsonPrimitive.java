// API surface for type-checking generated programs (not the library: bodies throw).
// Gson's JsonPrimitive (com.google.gson: a Json string, number or boolean) as formatValue reads it.
package com.google.gson;

public final class JsonPrimitive extends JsonElement {
    public boolean isNumber() {
        throw new UnsupportedOperationException();
    }

    public boolean isBoolean() {
        throw new UnsupportedOperationException();
    }

    public double getAsDouble() {
        throw new UnsupportedOperationException();
    }

    public boolean getAsBoolean() {
        throw new UnsupportedOperationException();
    }

    @Override
    public String getAsString() {
        throw new UnsupportedOperationException();
    }
}
