<#-- Keycloak's error page in the product's words, always with a way back into the product. -->
<#import "template.ftl" as layout>
<#assign homeUrl = (((client.clientId)!'') == 'tuber-web' && ((client.baseUrl)!'')?has_content)?then(client.baseUrl, '/')>
<@layout.registrationLayout displayMessage=false; section>
    <#if section = "header">
        ${kcSanitize(msg("errorTitle"))?no_esc}
    <#elseif section = "form">
        <div id="kc-error-message" class="tuber-stack">
            <p class="instruction">${kcSanitize((message.summary)!'')?no_esc}</p>
            <#if !skipLink??>
                <a id="backToApplication" class="${properties.kcButtonClass!} ${properties.kcButtonPrimaryClass!} ${properties.kcButtonBlockClass!}" href="${homeUrl}">${msg("backToApplication")}</a>
            </#if>
        </div>
    </#if>
</@layout.registrationLayout>
