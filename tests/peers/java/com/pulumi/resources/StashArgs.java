// API surface of pulumi-java for type-checking generated programs (not the SDK: bodies throw).
// Signatures from pulumi/pulumi-java sdk/java/pulumi/src/main/java/com/pulumi/resources/StashArgs.java
package com.pulumi.resources;

import com.pulumi.core.Output;

public final class StashArgs extends ResourceArgs {
    private StashArgs() {
    }

    public Output<Object> input() {
        throw new UnsupportedOperationException();
    }

    public static Builder builder() {
        throw new UnsupportedOperationException();
    }

    public static final class Builder {
        public Builder input(Output<Object> input) {
        throw new UnsupportedOperationException();
        }

        public Builder input(Object input) {
        throw new UnsupportedOperationException();
        }

        public StashArgs build() {
        throw new UnsupportedOperationException();
        }
    }
}
