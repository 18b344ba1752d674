// API surface of pulumi-java for type-checking generated programs (not the SDK: bodies throw).
// Signatures from pulumi/pulumi-java sdk/java/pulumi/src/main/java/com/pulumi/resources/ComponentResourceOptions.java
package com.pulumi.resources;

import java.util.List;

public final class ComponentResourceOptions extends ResourceOptions {
    public static final ComponentResourceOptions Empty = null;

    private ComponentResourceOptions() {
    }

    public static Builder builder() {
        throw new UnsupportedOperationException();
    }

    public static final class Builder extends ResourceOptions.Builder<ComponentResourceOptions, Builder> {
        private Builder(ComponentResourceOptions options) {
            super(options);
        }

        public Builder providers(ProviderResource... providers) {
        throw new UnsupportedOperationException();
        }

        public Builder providers(List<ProviderResource> providers) {
        throw new UnsupportedOperationException();
        }

        public ComponentResourceOptions build() {
        throw new UnsupportedOperationException();
        }
    }

    public List<ProviderResource> getProviders() {
        throw new UnsupportedOperationException();
    }
}
