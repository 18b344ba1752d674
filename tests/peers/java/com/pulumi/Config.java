// API surface of pulumi-java for type-checking generated programs (not the SDK: bodies throw).
// Signatures from pulumi/pulumi-java sdk/java/pulumi/src/main/java/com/pulumi/Config.java
// (the TypeShape overloads of getObject/requireObject are left out).
package com.pulumi;

import com.pulumi.core.Output;
import java.util.Optional;

public class Config {
    private Config() {
    }

    public static Config of(String name) {
        throw new UnsupportedOperationException();
    }

    public String getName() {
        throw new UnsupportedOperationException();
    }

    public Optional<String> get(String key) {
        throw new UnsupportedOperationException();
    }

    public Output<Optional<String>> getSecret(String key) {
        throw new UnsupportedOperationException();
    }

    public Optional<Boolean> getBoolean(String key) {
        throw new UnsupportedOperationException();
    }

    public Output<Optional<Boolean>> getSecretBoolean(String key) {
        throw new UnsupportedOperationException();
    }

    public Optional<Integer> getInteger(String key) {
        throw new UnsupportedOperationException();
    }

    public Optional<Double> getDouble(String key) {
        throw new UnsupportedOperationException();
    }

    public Output<Optional<Integer>> getSecretInteger(String key) {
        throw new UnsupportedOperationException();
    }

    public <T> Optional<T> getObject(String key, Class<T> classOfT) {
        throw new UnsupportedOperationException();
    }

    public <T> Output<Optional<T>> getSecretObject(String key, Class<T> classOfT) {
        throw new UnsupportedOperationException();
    }

    public String require(String key) {
        throw new UnsupportedOperationException();
    }

    public Output<String> requireSecret(String key) {
        throw new UnsupportedOperationException();
    }

    public boolean requireBoolean(String key) {
        throw new UnsupportedOperationException();
    }

    public Output<Boolean> requireSecretBoolean(String key) {
        throw new UnsupportedOperationException();
    }

    public int requireInteger(String key) {
        throw new UnsupportedOperationException();
    }

    public Output<Integer> requireSecretInteger(String key) {
        throw new UnsupportedOperationException();
    }

    public double requireDouble(String key) {
        throw new UnsupportedOperationException();
    }

    public Output<Double> requireSecretDouble(String key) {
        throw new UnsupportedOperationException();
    }

    public <T> T requireObject(String key, Class<T> classOfT) {
        throw new UnsupportedOperationException();
    }

    public <T> Output<T> requireSecretObject(String key, Class<T> classOfT) {
        throw new UnsupportedOperationException();
    }
}
