// API surface of pulumi-java for type-checking generated programs (not the SDK: bodies throw).
// Signatures from pulumi/pulumi-java sdk/java/pulumi/src/main/java/com/pulumi/deployment/InvokeOptions.java
// (the version with pluginDownloadURL and builder(), returning InvokeOptionsBuilder).
package com.pulumi.deployment;

import com.pulumi.resources.ProviderResource;
import com.pulumi.resources.Resource;
import java.util.Optional;

public class InvokeOptions {
    public static InvokeOptions Empty = null;

    public InvokeOptions() {
    }

    public InvokeOptions(Resource parent, ProviderResource provider, String version) {
    }

    public InvokeOptions(Resource parent, ProviderResource provider, String version, String pluginDownloadURL) {
    }

    public Optional<Resource> getParent() {
        throw new UnsupportedOperationException();
    }

    public Optional<ProviderResource> getProvider() {
        throw new UnsupportedOperationException();
    }

    public Optional<String> getVersion() {
        throw new UnsupportedOperationException();
    }

    public Optional<String> getPluginDownloadURL() {
        throw new UnsupportedOperationException();
    }

    public static InvokeOptionsBuilder builder() {
        throw new UnsupportedOperationException();
    }
}
