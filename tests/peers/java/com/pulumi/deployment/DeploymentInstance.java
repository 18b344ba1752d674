// API surface of pulumi-java for type-checking generated programs (not the SDK: bodies throw).
// Signatures from pulumi/pulumi-java sdk/java/pulumi/src/main/java/com/pulumi/deployment/DeploymentInstance.java
package com.pulumi.deployment;

public interface DeploymentInstance extends Deployment {
    boolean isInvalid();

    void markInvalid();
}
