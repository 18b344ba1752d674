// API surface of pulumi-java for type-checking generated programs (not the SDK: bodies throw).
// Signatures from pulumi/pulumi-java sdk/java/pulumi/src/main/java/com/pulumi/core/Alias.java
package com.pulumi.core;

import com.pulumi.resources.Resource;
import java.util.Optional;

public class Alias {
    private Alias() {
    }

    public static Alias noParent() {
        throw new UnsupportedOperationException();
    }

    public static Alias withUrn(String urn) {
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

        public Builder type(Output<String> type) {
            throw new UnsupportedOperationException();
        }

        public Builder type(String type) {
            throw new UnsupportedOperationException();
        }

        public Builder stack(Output<String> stack) {
            throw new UnsupportedOperationException();
        }

        public Builder stack(String stack) {
            throw new UnsupportedOperationException();
        }

        public Builder project(Output<String> project) {
            throw new UnsupportedOperationException();
        }

        public Builder project(String project) {
            throw new UnsupportedOperationException();
        }

        public Builder parent(Resource parent) {
            throw new UnsupportedOperationException();
        }

        public Builder parentUrn(Output<String> parentUrn) {
            throw new UnsupportedOperationException();
        }

        public Alias build() {
            throw new UnsupportedOperationException();
        }
    }

    public Optional<String> getUrn() {
        throw new UnsupportedOperationException();
    }

    public boolean hasNoParent() {
        throw new UnsupportedOperationException();
    }
}
