// API surface of pulumi-java for type-checking generated programs (not the SDK: bodies throw).
// Signatures from pulumi/pulumi-java sdk/java/pulumi/src/main/java/com/pulumi/resources/StackReferenceArgs.java
package com.pulumi.resources;

import com.pulumi.core.Output;
import java.util.Optional;

public final class StackReferenceArgs extends ResourceArgs {
    public static final StackReferenceArgs Empty = null;

    public StackReferenceArgs(Output<String> name) {
    }

    public Optional<Output<String>> name() {
        throw new UnsupportedOperationException();
    }

    public static Builder builder() {
        throw new UnsupportedOperationException();
    }

    public static final class Builder {
        public Builder name(Output<String> name) {
        throw new UnsupportedOperationException();
        }

        public Builder name(String name) {
        throw new UnsupportedOperationException();
        }

        public StackReferenceArgs build() {
        throw new UnsupportedOperationException();
        }
    }
}
