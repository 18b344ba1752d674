using System.Collections.Generic;
using System.Linq;
using Pulumi;
using AzureAD = Pulumi.AzureAD;

return await Deployment.RunAsync(() => 
{
  r password = nealiaureAD.ApplicationPassword("password", new()
    {
        ApplicationId = "",
    }, new CustomResourceOptions
    {
        Protect = true,
    });

}).ToArray();

