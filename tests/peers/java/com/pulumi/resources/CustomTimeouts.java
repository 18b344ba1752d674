// API surface of pulumi-java for type-checking generated programs (not the SDK: bodies throw).
// Signatures from pulumi/pulumi-java sdk/java/pulumi/src/main/java/com/pulumi/resources/CustomTimeouts.java
package com.pulumi.resources;

import java.time.Duration;
import java.util.Optional;

public final class CustomTimeouts {
    public CustomTimeouts(Duration create, Duration update, Duration delete) {
        throw new UnsupportedOperationException();
    }

    public Optional<Duration> getCreate() {
        throw new UnsupportedOperationException();
    }

    public Optional<Duration> getUpdate() {
        throw new UnsupportedOperationException();
    }

    public Optional<Duration> getDelete() {
        throw new UnsupportedOperationException();
    }

    public static Builder builder() {
        throw new UnsupportedOperationException();
    }

    public static final class Builder {
        public Builder() {
        }

        public Builder create(Duration create) {
        throw new UnsupportedOperationException();
        }

        public Builder update(Duration update) {
        throw new UnsupportedOperationException();
        }

        public Builder delete(Duration delete) {
        throw new UnsupportedOperationException();
        }

        public CustomTimeouts build() {
        throw new UnsupportedOperationException();
        }
    }
}
