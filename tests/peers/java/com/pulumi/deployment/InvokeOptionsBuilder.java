// API surface of pulumi-java for type-checking generated programs (not the SDK: bodies throw).
// Signatures from pulumi/pulumi-java sdk/java/pulumi/src/main/java/com/pulumi/deployment/InvokeOptionsBuilder.java
package com.pulumi.deployment;

import com.pulumi.resources.ProviderResource;
import com.pulumi.resources.Resource;

public final class InvokeOptionsBuilder {
    public InvokeOptionsBuilder parent(Resource parent) {
        throw new UnsupportedOperationException();
    }

    public InvokeOptionsBuilder provider(ProviderResource provider) {
        throw new UnsupportedOperationException();
    }

    public InvokeOptionsBuilder version(String version) {
        throw new UnsupportedOperationException();
    }

    public InvokeOptionsBuilder pluginDownloadURL(String pluginDownloadURL) {
        throw new UnsupportedOperationException();
    }

    public InvokeOptions build() {
        throw new UnsupportedOperationException();
    }
}
