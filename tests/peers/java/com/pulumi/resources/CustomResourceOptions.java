// API surface of pulumi-java for type-checking generated programs (not the SDK: bodies throw).
// Signatures from pulumi/pulumi-java sdk/java/pulumi/src/main/java/com/pulumi/resources/CustomResourceOptions.java
package com.pulumi.resources;

import java.util.List;

public final class CustomResourceOptions extends ResourceOptions {
    public static final CustomResourceOptions Empty = null;

    private CustomResourceOptions() {
    }

    public static Builder builder() {
        throw new UnsupportedOperationException();
    }

    public static final class Builder extends ResourceOptions.Builder<CustomResourceOptions, Builder> {
        private Builder(CustomResourceOptions options) {
            super(options);
        }

        public Builder deleteBeforeReplace(boolean deleteBeforeReplace) {
        throw new UnsupportedOperationException();
        }

        public Builder additionalSecretOutputs(String... additionalSecretOutputs) {
        throw new UnsupportedOperationException();
        }

        public Builder additionalSecretOutputs(List<String> additionalSecretOutputs) {
        throw new UnsupportedOperationException();
        }

        public Builder importId(String importId) {
        throw new UnsupportedOperationException();
        }

        public CustomResourceOptions build() {
        throw new UnsupportedOperationException();
        }
    }

    public static CustomResourceOptions merge(CustomResourceOptions options1, CustomResourceOptions options2) {
        throw new UnsupportedOperationException();
    }
}
