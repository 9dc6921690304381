import { type DynamicModule, Global, Module } from '@nestjs/common';
import { AppConfig } from '../config/config.js';

/** Makes the validated AppConfig injectable everywhere. */
@Global()
@Module({})
export class AppConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppConfigModule,
      providers: [{ provide: AppConfig, useValue: config }],
      exports: [AppConfig],
    };
  }
}
