// API surface of pulumi-java for type-checking generated programs (not the SDK: bodies throw).
// Signatures from pulumi/pulumi-java sdk/java/pulumi/src/main/java/com/pulumi/deployment/InvokeOutputOptions.java
package com.pulumi.deployment;

import com.pulumi.resources.ProviderResource;
import com.pulumi.resources.Resource;
import java.util.List;

public class InvokeOutputOptions extends InvokeOptions {
    public static InvokeOutputOptions Empty = null;

    public InvokeOutputOptions(Resource parent, ProviderResource provider, String version, String pluginDownloadURL,
            List<Resource> dependsOn) {
    }

    public InvokeOutputOptions(Resource parent, ProviderResource provider, String version, List<Resource> dependsOn) {
    }

    public InvokeOutputOptions() {
    }

    public List<Resource> getDependsOn() {
        throw new UnsupportedOperationException();
    }

    public static final class Builder {
        public Builder parent(Resource parent) {
        throw new UnsupportedOperationException();
        }

        public Builder provider(ProviderResource provider) {
        throw new UnsupportedOperationException();
        }

        public Builder version(String version) {
        throw new UnsupportedOperationException();
        }

        public Builder pluginDownloadURL(String pluginDownloadURL) {
        throw new UnsupportedOperationException();
        }

        public Builder dependsOn(Resource... dependsOn) {
        throw new UnsupportedOperationException();
        }

        public InvokeOutputOptions build() {
        throw new UnsupportedOperationException();
        }
    }
}
